document.getElementById('app');
