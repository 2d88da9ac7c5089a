// The React side of the languages: a component that calls useLang() or
// useT() re-renders when the language is switched.
import { useSyncExternalStore } from 'react';
import { getLang, subscribeLang, t, type Lang } from '.';

/** The current language; the component re-renders when it changes. */
export function useLang(): Lang {
  return useSyncExternalStore(subscribeLang, getLang, getLang);
}

/** t(), re-rendering the component on a language switch. */
export function useT(): typeof t {
  useLang();
  return t;
}
