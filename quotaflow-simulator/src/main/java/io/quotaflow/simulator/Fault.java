package io.quotaflow.simulator;

import java.util.Random;

/** What one fault draw picked for a chat-completion request, and its name in the statistics. */
enum Fault {
    NONE(null),
    HTTP_500("500"),
    HTTP_503("503"),
    HTTP_529("529"),
    HANG("hang"),
    MALFORMED("malformed"),
    MISSING_ITEM("missing-item"),
    STALL_BODY("stall-body");

    private final String statsName;

    Fault(String statsName) {
        this.statsName = statsName;
    }

    /** The key of {@link SimulatorStats#faultsInjected()}; null for {@link #NONE}. */
    String statsName() {
        return statsName;
    }

    /**
     * One uniform draw of {@code random} over the exclusive fault probabilities of {@code f}; no
     * draw at all (the random source is left untouched) when they are all 0.
     */
    static Fault draw(Faults f, Random random) {
        if (f.probabilitySum() <= 0) {
            return NONE;
        }
        double u = random.nextDouble();
        double edge = f.p500();
        if (u < edge) {
            return HTTP_500;
        }
        edge += f.p503();
        if (u < edge) {
            return HTTP_503;
        }
        edge += f.p529();
        if (u < edge) {
            return HTTP_529;
        }
        edge += f.pHang();
        if (u < edge) {
            return HANG;
        }
        edge += f.pMalformed();
        if (u < edge) {
            return MALFORMED;
        }
        edge += f.pMissingItem();
        if (u < edge) {
            return MISSING_ITEM;
        }
        edge += f.pStallBody();
        return u < edge ? STALL_BODY : NONE;
    }
}
