// The embed loader: registers the custom elements and loads each one's code on first use.
export {};
