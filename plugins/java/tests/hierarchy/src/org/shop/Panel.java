package org.shop;

import javax.swing.JPanel;
import java.util.Comparator;

// A class whose superclass is outside the tree: a method the tree does not declare is the
// dependency's (External, medium); the class's own methods still bind.
// @fact edge EXTENDS org.shop.Panel -> java:javax.swing.JPanel by=import
public class Panel extends JPanel {
    void paint() {}
    // @fact edge CALLS org.shop.Panel.refresh -> java:javax.swing.JPanel.repaint by=super confidence=medium
    // @fact edge CALLS org.shop.Panel.refresh -> org.shop.Panel.paint by=scope
    // @fact edge CALLS org.shop.Panel.refresh -> java:javax.swing.JPanel.getWidth by=self confidence=medium
    // @fact edge CALLS org.shop.Panel.refresh -> java:javax.swing.JPanel.setVisible by=super confidence=high
    void refresh() {
        repaint();
        paint();
        this.getWidth();
        super.setVisible(true);
    }
}

// Several supertypes outside the tree: which one declares a missing member is unknown.
class Both extends Unknown implements Comparator<String> {
    public int compare(String a, String b) { return 0; }
    // @fact edge CALLS org.shop.Both.go -> ?::src/org/shop/Panel.java::mystery reason="inherited from outside the tree"
    // @fact edge CALLS org.shop.Both.go -> org.shop.Both.compare by=scope
    void go() { mystery(); compare("a", "b"); }
}
