// A client component: rendered to HTML on the server, hydrated in the browser.
"use client";
import { useState } from "react";
import styles from "./LikeButton.module.css";

export function LikeButton({ initial }: { initial: number }) {
  const [likes, setLikes] = useState(initial);
  return (
    <button type="button" className={styles.like} onClick={() => setLikes(likes + 1)}>
      ♥ {likes}
    </button>
  );
}
