// Attributes of <pipesim-timeline> can change at run time; the element redraws.
const fig = document.getElementById('fig5');
document.getElementById('more-ranks').addEventListener('click', () => {
  const ranks = fig.getAttribute('ranks') === '8' ? '4' : '8';
  fig.setAttribute('ranks', ranks);
  fig.setAttribute('micro-batches', ranks === '8' ? '20' : '8');
});
document.getElementById('toggle-theme').addEventListener('click', () => {
  const dark = document.documentElement.classList.toggle('dark');
  for (const el of document.querySelectorAll('pipesim-timeline')) el.setAttribute('theme', dark ? 'dark' : 'light');
});
