"""The organization's public pages: thin views (`views`) and what they draw from stored data
(`svg` for brackets and charts, `table_cache` for rendered tables)."""
