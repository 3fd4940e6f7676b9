"""The production storage of static files."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Compressed, cache-busted static files whose JavaScript modules import each other's hashed names too: a hashed
    ``renderers/palabra.<hash>.js`` imports ``../dom.<hash>.js``, never a name that a later release changes under the
    browser's long cache."""

    support_js_module_import_aggregation = True
