// <Link href>: an <a href> whose plain clicks navigate on the client. A
// click with a modifier key or another button, a link to another site, to
// another frame or to download, and any click before the page hydrated keep
// the browser's own behaviour.
import { createElement, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from "react";
import { navigate, type NavigateOptions } from "./navigation.ts";

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement>, NavigateOptions {
  href: string;
}

/** A plain left click on a link to this site, opening here. */
function navigatesHere(event: MouseEvent<HTMLAnchorElement>): boolean {
  const anchor = event.currentTarget;
  return (
    event.button === 0 &&
    !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) &&
    (anchor.target === "" || anchor.target === "_self") &&
    !anchor.hasAttribute("download") &&
    anchor.origin === location.origin
  );
}

export function Link({ replace, scroll, ...props }: LinkProps): ReactNode {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    if (event.defaultPrevented || !navigatesHere(event)) return;
    event.preventDefault();
    void navigate(event.currentTarget.href, { replace, scroll });
  };
  return createElement("a", { ...props, onClick });
}
