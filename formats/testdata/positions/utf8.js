const s = "héllo"; var z = 2;
const 𐐀 = 1; var w = s;
