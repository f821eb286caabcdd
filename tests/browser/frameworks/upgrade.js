// Properties set on a <pipesim-timeline> before its module has defined it (as a framework does when
// the element's script loads late, like the course widget's): the element must take them over.
const early = document.createElement('pipesim-timeline');
early.id = 'a';
early.schedule = 'zb-v';
early.ranks = 4;
early.microBatches = 8;
document.getElementById('root').append(early);
import('/embed/pipesim-timeline.js');
