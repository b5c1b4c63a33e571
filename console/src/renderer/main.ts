import { mount } from 'svelte';
import '../../../web/src/theme.css';
import '../../../web/src/lib/ui/forms.css';
import App from './App.svelte';

mount(App, { target: document.getElementById('app')! });
