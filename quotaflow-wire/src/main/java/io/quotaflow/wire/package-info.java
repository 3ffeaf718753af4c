/**
 * Token counting ({@code TokenCounter}, the o200k splitter) and Go-style durations
 * ({@code GoDuration}), shared by core and the simulator. Depends on jtokkit only.
 */
package io.quotaflow.wire;
