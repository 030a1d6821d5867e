def load_plugins():
    """Plugins are not simulated."""
