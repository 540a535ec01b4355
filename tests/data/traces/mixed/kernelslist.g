# hand-written test trace: three kernels (tracer versions 4, 3, 5), two streams, copies
MemcpyHtoD,0x00007f0000000000,4096
kernel-1.traceg
kernel-2.traceg
MemcpyHtoD,0x00007f0000200000,256
kernel-3.traceg
