package io.quotaflow.bench;

import io.quotaflow.llm.ModelOutcome;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Why the simulator's answers on the whole text differ from the generated labels: each wrong
 * answer of the baseline step put down to the deliberate confuser its ticket carries
 * ({@link TicketGenerator}), if any, and the accuracy on the tickets that carry none.
 */
record LeanDisagreements(int categoryWrong, int categoryByMention, int urgencyWrong, int urgencyByHiddenCritical,
                     int urgencyByHiddenLow, int urgencyByInnocentHigh, int plain, int plainCategoryRight, int plainUrgencyRight) {

    static LeanDisagreements of(List<LeanBenchmark.Labelled> tickets, Map<String, ModelOutcome.Label> answers) {
        int[] d = new int[9];
        for (LeanBenchmark.Labelled l : tickets) {
            ModelOutcome.Label got = answers.get(l.key());
            if (got != null) {
                count(d, Confusers.of(l), !got.category().equals(l.category()), !got.urgency().equals(l.urgency()));
            }
        }
        return new LeanDisagreements(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8]);
    }

    private static void count(int[] d, Confusers c, boolean categoryWrong, boolean urgencyWrong) {
        if (categoryWrong) {
            d[0]++;
            d[1] += c.mention() ? 1 : 0;
        }
        if (urgencyWrong) {
            d[2]++;
            d[3] += c.hiddenCritical() ? 1 : 0;
            d[4] += c.hiddenLow() && !c.hiddenCritical() ? 1 : 0;
            d[5] += c.innocentHigh() && !c.hiddenCritical() && !c.hiddenLow() ? 1 : 0;
        }
        if (!c.any()) {
            d[6]++;
            d[7] += categoryWrong ? 0 : 1;
            d[8] += urgencyWrong ? 0 : 1;
        }
    }

    String report() {
        return String.format(Locale.ROOT, "Generated set, whole text (baseline step): the simulator disagrees with the label on %d categories "
                        + "(%d of them carry a mention of another category) and %d urgencies (%d an outage in words no rule knows, "
                        + "%d a low urgency in words no rule knows, %d an innocent \"cannot\"): the generator's deliberate confusers.%n"
                        + "On the %d generated tickets without a confuser: category %.2f%%, urgency %.2f%%.%n",
                categoryWrong, categoryByMention, urgencyWrong, urgencyByHiddenCritical, urgencyByHiddenLow, urgencyByInnocentHigh, plain,
                LeanBenchmark.Row.pct(plainCategoryRight, plain), LeanBenchmark.Row.pct(plainUrgencyRight, plain));
    }

    /** Which of the generator's deliberate confusers ({@link Phrases}) a ticket's text carries. */
    record Confusers(boolean mention, boolean hiddenCritical, boolean hiddenLow, boolean innocentHigh) {

        static Confusers of(LeanBenchmark.Labelled l) {
            String text = (l.subject() == null ? "" : l.subject()) + "\n" + l.body();
            return new Confusers(carries(text, Phrases.EN.mentions().values()) || carries(text, Phrases.PT.mentions().values()),
                    carries(text, List.of(Phrases.EN.hiddenCritical(), Phrases.PT.hiddenCritical())),
                    carries(text, List.of(Phrases.EN.hiddenLow(), Phrases.PT.hiddenLow())),
                    carries(text, List.of(Phrases.EN.innocentHigh(), Phrases.PT.innocentHigh())));
        }

        boolean any() {
            return mention || hiddenCritical || hiddenLow || innocentHigh;
        }

        private static boolean carries(String text, java.util.Collection<List<String>> pools) {
            for (List<String> pool : pools) {
                for (String sentence : pool) {
                    if (text.contains(sentence)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
