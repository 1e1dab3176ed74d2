"""tclose desktop app: a PySide6 wizard over the engine.

Widgets stay thin: state lives in plain objects, long work runs in worker objects on a
``QThread``, and every privacy decision is made by the engine.
"""
