package learn
