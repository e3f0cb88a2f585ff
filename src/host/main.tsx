import { createRoot } from 'react-dom/client';

// Placeholder shell until the site shell lands (issue: client core and site shell).
createRoot(document.getElementById('root')!).render(<h1>CSAI</h1>);
