"""Message catalogs of kosti: ``en.toml`` and ``ru.toml`` (read by :mod:`kosti.i18n`)."""
