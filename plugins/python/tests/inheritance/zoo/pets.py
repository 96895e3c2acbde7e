from .base import Animal
from zoo import base


class Dog(Animal):  # @fact edge EXTENDS zoo.pets.Dog -> zoo.base.Animal by=import
    def bark(self):
        self.speak()  # inherited across modules
        # @fact edge CALLS zoo.pets.Dog.bark -> zoo.base.Animal.speak by=self

    def fetch(self):
        def inner():
            self.bark()  # `self` of the enclosing method, from a nested function

        # @fact edge CALLS zoo.pets.Dog.fetch.inner -> zoo.pets.Dog.bark by=self
        inner()


class Cat(base.Walker):  # @fact edge EXTENDS zoo.pets.Cat -> zoo.base.Walker by=import
    def purr(self):
        self.move()  # @fact edge CALLS zoo.pets.Cat.purr -> zoo.base.Walker.move by=self
        Animal.speak(self)  # an explicit call through the class
        # @fact edge CALLS zoo.pets.Cat.purr -> zoo.base.Animal.speak by=class
