// Sizes the iframe to the height the embedded page reports.
const frame = document.getElementById('frame');
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.data?.type !== 'pipesim:resize') return;
  frame.style.height = `${Math.ceil(event.data.height)}px`;
});
