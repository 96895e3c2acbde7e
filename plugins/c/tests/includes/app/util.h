int util(void);
