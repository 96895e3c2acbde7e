package svc

type Service struct{}

func (s *Service) Find(id int) {}
func (s *Service) FindAll()    {}
func (s *Service) Append(x int) {}

func New() *Service { return &Service{} }

// Same name, different types: separate keys, never merged.
type Cache struct{}

func (c *Cache) Find(id int) {}

// @fact node example.com/fm/svc.Service.Find Method
// @fact node example.com/fm/svc.Cache.Find Method
