package dev.muster.bench.sidebyside;

/** The scheduler one half of the benchmark runs, and the {@code schedulerName} its pods ask for. */
enum Side {
    /** {@code muster run}: pods in gangs, a Volcano PodGroup per gang and the group-name annotation on each pod. */
    MUSTER("muster", "muster"),
    /** kube-scheduler's default profile: the same pods, plain. */
    KUBE_SCHEDULER("kube-scheduler", "default-scheduler");

    private final String label;
    private final String schedulerName;

    Side(String label, String schedulerName) {
        this.label = label;
        this.schedulerName = schedulerName;
    }

    String label() {
        return label;
    }

    String schedulerName() {
        return schedulerName;
    }

    boolean gangs() {
        return this == MUSTER;
    }

    static Side parse(String label) {
        for (Side side : values()) {
            if (side.label.equals(label)) {
                return side;
            }
        }
        throw new IllegalArgumentException("unknown side '" + label + "' (known: muster, kube-scheduler)");
    }
}
