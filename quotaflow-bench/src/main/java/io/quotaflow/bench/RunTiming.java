package io.quotaflow.bench;

import java.util.Map;

/**
 * When things happened in a benchmark run, in epoch milliseconds.
 *
 * @param firstPublish when publishing started
 * @param lastPublish  when the last publish was acknowledged
 * @param lastAnswer   when the consumer saw the last outcome
 * @param publishedAt  (j) when each interactive ticket's publish started, by id
 * @param lane         (j) what the {@link LaneWatch} saw of each interactive ticket, by id (empty without one)
 */
record RunTiming(long firstPublish, long lastPublish, long lastAnswer, Map<String, Long> publishedAt, Map<String, LaneWatch.Seen> lane) {
}
