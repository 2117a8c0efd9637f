// Page entry: mounts the app shell.
import { mount } from 'svelte';
import App from './App.svelte';
import { startRelayFeed } from './lib/relay-feed.js';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
mount(App, { target });
startRelayFeed(); // relay captures of external clients, into storage (lib/relay-feed.ts)
