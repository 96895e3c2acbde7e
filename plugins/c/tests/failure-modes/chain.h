int hop1(int n);
int hop2(int n);
int hop3(int n);
int hop4(int n);
