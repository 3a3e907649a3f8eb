/**
 * Keeps the shared date range and the address in step on every signed-in screen (rules in
 * state/dateRangeUrl.ts): an address naming a range sets it (a link opened, back and forward); a
 * chosen range is written into the address (replacing the entry, so a change of range adds no
 * history), including after a navigation to an address without it, so the remembered range
 * carries from screen to screen and the address always shows it.
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { todayIn } from '../state/dateRangePresets.ts';
import { useDateRange } from '../state/dateRangeStore.ts';
import { readRangeParams, writeRangeParams } from '../state/dateRangeUrl.ts';

export function useDateRangeInUrl(timeZone: string | undefined): void {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  // The address the shell opened on is read before the first screen renders, so its queries ask
  // for the linked range at once instead of the default first.
  useState(() => applyAddress(search, timeZone));
  const range = useDateRange((s) => s.range);
  const chosen = useDateRange((s) => s.chosen);

  // Address → store (before the store → address effect below, which reads the store afresh).
  useEffect(() => applyAddress(search, timeZone), [search, timeZone]);

  useEffect(() => {
    const state = useDateRange.getState();
    // The address as it is now (a screen may have written its own parameters since this render).
    const current = new URLSearchParams(window.location.search);
    const next = writeRangeParams(current, state.chosen ? state.range : null, todayIn(timeZone));
    if (next.toString() === current.toString()) return;
    const query = next.toString();
    void navigate({ pathname, search: query ? `?${query}` : '', hash }, { replace: true });
  }, [range, chosen, pathname, search, hash, timeZone, navigate]);
}

function applyAddress(search: string, timeZone: string | undefined): void {
  const read = readRangeParams(new URLSearchParams(search), todayIn(timeZone));
  if (read.kind === 'range') useDateRange.getState().openRange(read.range);
}
