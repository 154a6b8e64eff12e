"""Forms of the organizer pages, one module a topic. They parse what a person typed; the
services check it (the same checks as the API's) and their refusals are shown on the form."""
