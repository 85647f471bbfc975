/**
 * Builds the web app when its sources are newer than the last build, as the
 * local stack does at start. `npm test` runs it before the browser tests'
 * stacks start side by side, so they never build into web/dist at once.
 */
import { prefixedLog } from '../infra/local/processes';
import { buildWeb, webBuildIsStale } from '../infra/local/webBuild';

const root = process.cwd();
if (webBuildIsStale(root)) await buildWeb(root, prefixedLog('web-build', false));
