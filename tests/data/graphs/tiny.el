# a path 0-1-2-3 and a triangle 4-5-6 (weights in the third column)
0 1 5
1 2 1
2 3 2

% another comment
4 5
5 6 7
6 4
