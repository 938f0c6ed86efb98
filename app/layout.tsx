import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";
import "@/sdk/react/styles.css";

export const metadata: Metadata = {
  title: "Cited",
  description: "Answers grounded in your documents, with citations on the exact lines.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered for each request, so that Next.js puts this request's nonce on its scripts (proxy.ts).
  await connection();
  return (
    <html lang="en" className="cited-follow-system">
      <body className="min-h-screen bg-stone-50 text-stone-900 antialiased dark:bg-stone-950 dark:text-stone-100">
        {children}
      </body>
    </html>
  );
}
