import t from 'tap';
t.pass('ok');
