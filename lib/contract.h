/* contract.h - the backend contract between torch-opt and torch-lower. */
#ifndef FX_CONTRACT_H
#define FX_CONTRACT_H

/* 1 if op `name` may appear in IR at the backend contract. */
int contract_allows(const char *name);

#endif
