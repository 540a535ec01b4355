/* Subcommands of the gpumemsim command. Each returns the process exit code. */
#ifndef GMS_CLI_CLI_H
#define GMS_CLI_CLI_H
int gms_cmd_run(int argc, char **argv);
int gms_cmd_config(int argc, char **argv);
int gms_cmd_list(int argc, char **argv);
int gms_cmd_trace(int argc, char **argv);   /* cmd_trace.c (trace export) */
int gms_cmd_sweep(int argc, char **argv);   /* cmd_sweep.c */
int gms_cmd_report(int argc, char **argv);  /* cmd_sweep.c / report */
int gms_cmd_plot(int argc, char **argv);    /* cmd_plot.c */
int gms_cmd_repro(int argc, char **argv);   /* cmd_repro.c */
#endif
