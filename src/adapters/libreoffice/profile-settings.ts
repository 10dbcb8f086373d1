/**
 * LibreOffice's own settings, written into every renderer's fresh profile before it starts
 * (`user/registrymodifications.xcu`, the file LibreOffice keeps a profile's changed settings in). They are the
 * second line behind the deck's copy that has nothing external left (docs/security.md, "Rendering untrusted
 * decks"): macros never run, links are never updated, links to untrusted referers are blocked, no Java, no
 * crash reports, update checks or online help.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** [node path, property, value]: officecfg's schema names them. */
const SETTINGS: readonly [string, string, string][] = [
  // Macro security "very high" (only signed macros from trusted places, and there are none), and no macros at all.
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  // Links whose referer is not trusted (a document's) are not opened: pictures, OLE links, frames.
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  // Never update links on load (0: never), in the embedded Writer and Calc objects too.
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', '0'],
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', '0'],
  ['/org.openoffice.Office.Java/VirtualMachine', 'Enable', 'false'],
  ['/org.openoffice.Office.Common/Misc', 'CrashReport', 'false'],
  ['/org.openoffice.Office.Common/Misc', 'CollectUsageInformation', 'false'],
  ['/org.openoffice.Office.Common/Help', 'HelpRootURL', ''],
  [
    "/org.openoffice.Office.Jobs/Jobs/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments",
    'AutoCheckEnabled',
    'false',
  ],
];

/** Writes the settings into `profile` (LibreOffice's UserInstallation folder, created when missing). */
export function writeProfileSettings(profile: string): void {
  const items = SETTINGS.map(
    ([path, name, value]) =>
      `<item oor:path="${path.replace(/'/g, '&apos;')}"><prop oor:name="${name}" oor:op="fuse">` +
      `<value>${value}</value></prop></item>`,
  );
  mkdirSync(join(profile, 'user'), { recursive: true });
  writeFileSync(
    join(profile, 'user', 'registrymodifications.xcu'),
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<oor:items xmlns:oor="http://openoffice.org/2001/registry" ' +
      'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n' +
      `${items.join('\n')}\n</oor:items>\n`,
  );
}
