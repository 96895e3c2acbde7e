package p.q;

class Helper { void assist() {} }
