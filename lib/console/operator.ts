/**
 * Who may use the console: the one check every console page and route handler makes. Anyone else
 * gets a 404, so the console does not even show that it exists.
 */
import "server-only";
import { notFound } from "next/navigation";
import { currentUser } from "../auth.ts";
import { consoleSettings, type Operators, operatorIdKey } from "./env.ts";

export interface Operator {
  id: string;
  /** What the header shows: the user name, or the email in Supabase mode. */
  name: string;
  /** True when the user is let in only because development runs without CITED_OPERATORS. */
  everyoneInDevelopment: boolean;
}

export function isOperator(userId: string, operators: Operators): boolean {
  return operators.kind === "everyone-in-development" || operators.ids.includes(operatorIdKey(userId));
}

/** The signed-in operator, or null when there is no console, nobody is signed in, or they are not an operator. */
export async function consoleOperator(): Promise<Operator | null> {
  const settings = consoleSettings();
  if (settings === null) return null;
  const user = await currentUser();
  if (user === null || !isOperator(user.id, settings.operators)) return null;
  return {
    id: user.id,
    name: user.name,
    everyoneInDevelopment: settings.operators.kind === "everyone-in-development",
  };
}

/** The signed-in operator; anyone else ends the page or route here with Next.js's 404. */
export async function requireOperator(): Promise<Operator> {
  const operator = await consoleOperator();
  if (operator === null) notFound();
  return operator;
}
