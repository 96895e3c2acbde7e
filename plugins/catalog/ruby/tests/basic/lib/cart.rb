require "json"

# A shopping cart.
# @fact node lib/cart.rb::Cart Class
class Cart
  # @fact node lib/cart.rb::Cart.add Method
  def add(item)
    normalize(item) # @fact edge CALLS lib/cart.rb::Cart.add -> lib/cart.rb::Cart.normalize by=scope
    @items.push(item) # @fact edge CALLS lib/cart.rb::Cart.add -> ?::lib/cart.rb::@items.push reason="receiver type unknown"
  end

  def normalize(item)
    item
  end

  def self.build
    Cart.new # @fact no-edge CALLS lib/cart.rb::Cart.build -> lib/cart.rb::Cart
  end
end

# @fact edge IMPORTS lib/cart.rb -> ruby:json
# @fact node lib/cart.rb::Store Module
module Store
  def self.open
    missing_helper # @fact no-edge CALLS lib/cart.rb::Store.open -> *
  end
end
