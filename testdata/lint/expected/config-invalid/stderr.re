^rollcall: error: testdata/lint/config-invalid/\.rollcall\.yaml(:3:3:| \(line 3, column 3\):) no rule has this id \(rollcall rules lists them\)
