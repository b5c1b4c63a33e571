/**
 * Lets a `.ui-table` stack its rows at phone width (forms.css, `[data-stacked]`): each cell carries its
 * column's heading as `data-label`, shown before the value once the heading row is hidden. The labels
 * follow the rows and the language, so a MutationObserver relabels after every render. `display: block`
 * takes a table's semantics out of the accessibility tree, so the roles are set explicitly: a screen
 * reader still hears a table with column headings.
 */
export function stackedTable(table: HTMLTableElement): { destroy: () => void } {
  table.dataset.stacked = '';
  table.setAttribute('role', 'table');
  const label = () => {
    for (const row of Array.from(table.rows)) {
      row.setAttribute('role', 'row');
      for (const cell of Array.from(row.cells)) {
        const heading = cell.tagName === 'TH' ? (cell.parentElement?.parentElement === table.tHead ? 'columnheader' : 'rowheader') : 'cell';
        if (cell.getAttribute('role') !== heading) cell.setAttribute('role', heading);
      }
    }
    const headings = Array.from(table.tHead?.rows[0]?.cells ?? [], (cell) => cell.textContent?.trim() ?? '');
    for (const body of Array.from(table.tBodies)) {
      for (const row of Array.from(body.rows)) {
        Array.from(row.cells).forEach((cell, index) => {
          const heading = headings[index];
          // A row of one wide cell (an empty list's note) needs no label.
          if (heading && cell.colSpan === 1 && cell.dataset.label !== heading) cell.dataset.label = heading;
        });
      }
    }
  };
  label();
  // Attributes are not observed, so setting the labels does not wake the observer again.
  const observer = new MutationObserver(label);
  observer.observe(table, { childList: true, subtree: true, characterData: true });
  return { destroy: () => observer.disconnect() };
}
