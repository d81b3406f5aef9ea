"""The Qt adaptor of core's History and the file side: the document the views follow, the
shared selection, open/save/import, autosave and recovery, the worker for odds previews, the
quiet garbage collector and token portraits. No window code: nothing here imports the map,
tools, panels, dialogs or table play."""
