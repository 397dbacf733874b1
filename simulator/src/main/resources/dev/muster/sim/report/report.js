// Draws the report's charts from DATA (built by ReportData.java). Plain Chart.js, no other library.
const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const animation = false;

function chart(canvas, config) {
  config.options = Object.assign({animation, maintainAspectRatio: false, responsive: true}, config.options || {});
  return new Chart(canvas, config);
}

chart(document.getElementById('jct'), {
  type: 'line',
  data: {datasets: DATA.policies.map((p, i) => ({label: p.name, data: p.jctCdf.map(([x, y]) => ({x, y})),
    borderColor: COLORS[i % COLORS.length], pointRadius: 0, stepped: true}))},
  options: {scales: {x: {type: 'logarithmic', title: {display: true, text: 'JCT (s, log)'}},
    y: {min: 0, max: 1, title: {display: true, text: 'fraction of completed jobs'}}}}
});

chart(document.getElementById('allocation'), {
  type: 'line',
  data: {labels: DATA.policies[0].hours, datasets: DATA.policies.map((p, i) => ({label: p.name + ' ' + p.measured,
    data: (p.measured === 'cpu' ? p.cpu : p.gpu).map(v => 100 * v), borderColor: COLORS[i % COLORS.length], pointRadius: 0}))},
  options: {scales: {x: {title: {display: true, text: 'hours'}}, y: {min: 0, max: 100, title: {display: true, text: '% allocated'}}}}
});

DATA.policies.forEach(p => {
  const box = document.createElement('div');
  box.className = 'chart';
  box.innerHTML = '<h3>' + p.name + '</h3><canvas></canvas>';
  document.getElementById('queues').appendChild(box);
  const datasets = [];
  p.queues.forEach((q, i) => {
    const color = COLORS[i % COLORS.length];
    datasets.push({label: q.name, data: q.share.map(v => 100 * v), borderColor: color, pointRadius: 0});
    datasets.push({label: q.name + ' deserved', data: q.deserved.map(v => 100 * v), borderColor: color, borderDash: [4, 4], pointRadius: 0});
  });
  chart(box.querySelector('canvas'), {type: 'line', data: {labels: p.hours, datasets},
    options: {scales: {y: {min: 0, title: {display: true, text: '% of cluster ' + p.measured}}}}});
});

DATA.policies.forEach((p, i) => {
  const box = document.createElement('div');
  box.className = 'chart';
  box.innerHTML = '<h3>' + p.name + '</h3><canvas></canvas>';
  document.getElementById('gantt').appendChild(box);
  const jobs = DATA.gantt.filter(j => j.policies[p.name]);
  chart(box.querySelector('canvas'), {
    type: 'bar',
    data: {labels: jobs.map(j => j.id), datasets: [
      {label: 'waiting', data: jobs.map(j => [j.policies[p.name][0], j.policies[p.name][1]]), backgroundColor: COLORS[i % COLORS.length] + '55'},
      {label: 'running', data: jobs.map(j => [j.policies[p.name][1], j.policies[p.name][2]]), backgroundColor: COLORS[i % COLORS.length]}]},
    options: {indexAxis: 'y', scales: {x: {min: 0, title: {display: true, text: 'hours'}}, y: {stacked: true}}}
  });
});
document.body.dataset.rendered = 'true';
