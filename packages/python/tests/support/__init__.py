"""What the Python suite starts and reads: the real service, its CLI, receivers and relays on 127.0.0.1, and
the decks it writes read back as a user checks them."""
