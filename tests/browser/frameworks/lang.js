// Two elements, two languages, on an English page: a quiz in Chinese (its question bank loads after the
// first drawing, so the drawing that follows must still be in the element's language) and a timeline
// in English.
import '/embed/pipesim-timeline.js';

const root = document.getElementById('root');
const quiz = document.createElement('pipesim-timeline');
quiz.id = 'quiz';
quiz.lang = 'zh-CN';
quiz.view = 'quiz';
const timeline = document.createElement('pipesim-timeline');
timeline.id = 'a';
root.append(quiz, timeline);
