/* Prepended to every hdgcl kernel program: double precision. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
