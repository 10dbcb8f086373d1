/** The namespace declarations PowerPoint writes on the root of the slide and notes parts we build from nothing. */
export const PML_ROOT_NAMESPACES: Readonly<Record<string, string>> = {
  'xmlns:a': 'http://schemas.openxmlformats.org/drawingml/2006/main',
  'xmlns:r': 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'xmlns:p': 'http://schemas.openxmlformats.org/presentationml/2006/main',
};

/** The same declarations as written in a start tag. */
export const PML_ROOT_NAMESPACE_ATTRIBUTES = Object.entries(PML_ROOT_NAMESPACES)
  .map(([name, uri]) => `${name}="${uri}"`)
  .join(' ');
