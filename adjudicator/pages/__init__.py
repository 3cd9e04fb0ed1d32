"""The HTML pages' one home: strings, language, headers, rendering."""
