import './styles/public.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadSignedIn } from './app/preloadSignedIn';
import { loadConfig } from './config';

// Start fetching /config.json now, in parallel with the first render: public
// pages render without it, and API calls await it (api/client.ts).
loadConfig().catch((error: unknown) => {
  console.error('Could not load /config.json; API calls will fail until it loads.', error);
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// A signed-in address: start its code and the session's restoration side by side, rather
// than one after another as the render would (app/preloadSignedIn.ts); just after the first
// paint (the frame's outline and the page's heading, app/FrameSkeleton.tsx), so that
// evaluating the frame's, the page's and the API client's code does not hold that paint back.
const pathname = window.location.pathname;
requestAnimationFrame(() => setTimeout(() => preloadSignedIn(pathname), 0));
