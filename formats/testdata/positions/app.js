var x = 1;
const y = "hello"; var z = 2;
