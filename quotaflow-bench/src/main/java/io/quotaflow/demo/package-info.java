/**
 * The demo's scenarios (steady, outage, fallback) and their reports, and the assumed prices that
 * price the simulator's free models. Developer distribution only; {@code bench} builds on it, not the
 * other way.
 */
package io.quotaflow.demo;
