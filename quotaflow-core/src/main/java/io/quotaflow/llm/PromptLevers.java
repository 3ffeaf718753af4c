package io.quotaflow.llm;

import java.util.EnumSet;
import java.util.Set;

/**
 * What a prompt leaves out to spend fewer tokens per ticket (docs/design.md, "Lean prompts"), each a
 * lever measured on its own by {@code quotaflow bench --scenario lean}.
 *
 * @param shortIds      tickets are numbered {@code "1"}, {@code "2"}, ... within the call instead of
 *                      carrying their key (tenant and id), and the answer is mapped back
 * @param compactSystem the short system prompt ({@link PromptBuilder#SYSTEM_PROMPT}) instead of the long one
 * @param leanText      the ticket's text without greetings, sign-offs, quoted replies, repeated
 *                      whitespace and the middle of long logs ({@link TicketText})
 * @param tailCuts      with {@code leanText}, the heavy tail's cuts ({@link TicketTail.Cut}): quoted
 *                      threads, disclaimers, contact blocks, long tables, more log shapes
 */
public record PromptLevers(boolean shortIds, boolean compactSystem, boolean leanText, Set<TicketTail.Cut> tailCuts) {

    /** Every lever: what the pipeline sends. */
    public static final PromptLevers LEAN = new PromptLevers(true, true, true, EnumSet.allOf(TicketTail.Cut.class));
    /** No lever: the request of prompt version 1 (the fixed-batch baseline's). */
    public static final PromptLevers FULL = new PromptLevers(false, false, false, Set.of());

    public PromptLevers {
        tailCuts = tailCuts.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(tailCuts));
    }

    public PromptLevers withShortIds(boolean value) {
        return new PromptLevers(value, compactSystem, leanText, tailCuts);
    }

    public PromptLevers withCompactSystem(boolean value) {
        return new PromptLevers(shortIds, value, leanText, tailCuts);
    }

    public PromptLevers withLeanText(boolean value) {
        return new PromptLevers(shortIds, compactSystem, value, tailCuts);
    }

    public PromptLevers withTailCuts(Set<TicketTail.Cut> value) {
        return new PromptLevers(shortIds, compactSystem, leanText, value);
    }
}
