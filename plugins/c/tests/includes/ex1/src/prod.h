int produce(void);
