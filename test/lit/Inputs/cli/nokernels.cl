// A helper with no kernel: the plugin writes no model.
float twice(float x) { return 2.0f * x; }
