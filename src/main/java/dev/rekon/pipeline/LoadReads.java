package dev.rekon.pipeline;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The threads a load's blocking reads run on when one load makes them beside one another (a publication's template
 * and release meta from the apiserver, its component version and small blobs from the registry): each waits on the
 * network, not the CPU, so they do not belong to the common pool, which has one thread per core. The loop owns
 * them, not an area: they schedule nothing, since every read starts and is joined inside one load of one key, so
 * the {@link WorkQueue} still decides who works which key, and when.
 */
public final class LoadReads {

    public static final Executor EXECUTOR = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "rekon-load-read");
        t.setDaemon(true);
        return t;
    });

    private LoadReads() {
    }
}
