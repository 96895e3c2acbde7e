package org.shop;

import javax.swing.JPanel;

// @fact edge EXTENDS org.shop.Circle -> org.shop.Figure by=package
// @fact edge IMPLEMENTS org.shop.Circle -> org.shop.Shape by=package
// @fact edge IMPLEMENTS org.shop.Circle -> java:java.lang.Comparable by=import
public class Circle extends Figure implements Shape, Comparable<Circle> {
    public double area() { return 3.14; }
    public String name() { return "circle"; }
    public int compareTo(Circle o) { return 0; }

    // inherited from an in-tree ancestor two levels up
    // @fact edge CALLS org.shop.Circle.draw -> org.shop.Element.render by=scope
    // Object's own methods, with a hierarchy that stays in the tree
    // @fact edge CALLS org.shop.Circle.draw -> java:java.lang.Object.getClass by=super
    void draw() {
        render();
        getClass();
    }
}
