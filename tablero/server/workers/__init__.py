"""Engine work that the web process hands off: computer players' moves."""
